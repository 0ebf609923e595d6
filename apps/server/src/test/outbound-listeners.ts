import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A listener on 127.0.0.1 that accepts connections and never answers. */
export async function startSilentServer(): Promise<{ port: number; connections: number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const state = { port: 0, connections: 0, close: async () => undefined as void };
  const server: Server = createServer((socket) => {
    state.connections += 1;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

/** A port on 127.0.0.1 that nothing listens on (taken and released again). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
