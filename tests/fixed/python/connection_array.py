# Connections kept in a list, one per replica: `replicas[i]` is a different
# connection on each pass. The request sent to every replica in one write per
# pass, with the replies read afterwards, is no split and no run of small
# writes on one connection; a request written in two pieces to each replica
# before its reply is read is split on every one of them.
# fixture-confidence: low


def ask_all(replicas, request):
    for i in range(len(replicas)):
        replicas[i].sendall(request)
    return [replicas[i].recv(4096) for i in range(len(replicas))]


def ask_each(replicas, head, body):
    replies = []
    for i in range(len(replicas)):
        replicas[i].sendall(head + body)  # expect: NGL001
        replies.append(replicas[i].recv(4096))
    return replies
