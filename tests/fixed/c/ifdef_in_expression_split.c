/* A request split in two sends, in a function whose statements hold conditionals (around a
   block's braces and an `if`'s first branch, in the middle of a condition), which a parser
   reading each directive where it stands loses whole: the function is read as one build sees
   it, directives left out, and the split is found. The request sent whole:
   ifdef_in_expression_whole.c. */
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>

struct ctx { int sock; int family; int scope; };

void log_try(struct ctx *ctx, const char *how);

int ask(struct ctx *ctx, const char *head, int hl, const char *body, int bl, char *out, int cap)
{
    ctx->sock = socket(AF_INET, SOCK_STREAM, 0);
#ifdef HAVE_SCOPE_ID
    {
        if (ctx->scope)
            log_try(ctx, "scoped");
        else
#endif
            log_try(ctx, "plain");
#ifdef HAVE_SCOPE_ID
    }
#endif
    if (ctx->family == AF_INET
#ifdef USE_IPV6
        || ctx->family == AF_INET6
#endif
       ) {
        {
            struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
            writev(ctx->sock, iov, 2);
        } // expect: NGL001
    }
    return (int)recv(ctx->sock, out, cap, 0);
}
