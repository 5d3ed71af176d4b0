import { createSocket } from "node:dgram";

const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const XOR_MAPPED_ADDRESS = 0x0020;

/**
 * A STUN server for WebRTC legs in tests (RFC 5389 Binding only): it answers each Binding request
 * with the sender's address as XOR-MAPPED-ADDRESS, so candidate gathering finishes at once instead
 * of waiting out a public STUN server that cannot be reached.
 */
export async function startStunResponder(): Promise<{ url: string; close(): Promise<void> }> {
  const socket = createSocket("udp4");
  socket.on("message", (message, remote) => {
    if (message.length < 20 || message.readUInt16BE(0) !== BINDING_REQUEST) return;
    if (message.readUInt32BE(4) !== MAGIC_COOKIE || remote.family !== "IPv4") return;
    const response = Buffer.alloc(32);
    response.writeUInt16BE(BINDING_SUCCESS, 0);
    response.writeUInt16BE(12, 2);
    message.copy(response, 4, 4, 20); // magic cookie and transaction id
    response.writeUInt16BE(XOR_MAPPED_ADDRESS, 20);
    response.writeUInt16BE(8, 22);
    response.writeUInt8(0, 24);
    response.writeUInt8(0x01, 25);
    response.writeUInt16BE(remote.port ^ (MAGIC_COOKIE >>> 16), 26);
    const octets = remote.address.split(".").map(Number);
    const address = ((octets[0] ?? 0) << 24) | ((octets[1] ?? 0) << 16) | ((octets[2] ?? 0) << 8) | (octets[3] ?? 0);
    response.writeUInt32BE((address ^ MAGIC_COOKIE) >>> 0, 28);
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "0.0.0.0", resolve));
  return {
    url: `stun:127.0.0.1:${socket.address().port}`,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
