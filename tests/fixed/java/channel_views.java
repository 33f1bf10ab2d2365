// The same connection reached through another view of it: a blocking
// SocketChannel's socket() streams, and a Netty handler context's channel().
// Two pieces written through the view split the message as they would
// written on the connection itself.
// fixture-select: NGL006
// catalogue: wrappers.channel, wrappers.socket
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.io.BufferedOutputStream;

final class BlockingChannelClient {
    static int call(InetSocketAddress peer, byte[] head, byte[] body) throws IOException {
        try (SocketChannel channel = SocketChannel.open(peer)) {
            OutputStream out = new BufferedOutputStream(channel.socket().getOutputStream());
            out.write(head);
            out.write(body); // expect: NGL001
            out.flush();
            return channel.read(ByteBuffer.allocate(64));
        }
    }
}

final class StatusHandler extends SimpleChannelInboundHandler<ByteBuf> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
        ctx.channel().writeAndFlush(Unpooled.copiedBuffer("+OK ", StandardCharsets.US_ASCII));
        ctx.channel().writeAndFlush(msg.retain()); // expect: NGL006
    }
}
