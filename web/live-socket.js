// A WebSocket that comes back by itself: the game's and the tournament's live lines share
// it. It waits longer after each failed try (up to five seconds) and stops for good when
// closed.

/** The first wait before reconnecting, and the longest. */
const FIRST_DELAY_MS = 250;
const MAX_DELAY_MS = 5000;

/** The wait before the reconnection after one that waited `delay`: twice as long, at most
 * five seconds. */
export const nextDelay = (delay) => Math.min(delay * 2, MAX_DELAY_MS);

/** Opens the socket of `path` (`/api/…/ws`) on this site: `onOpen(socket)` when it opens,
 * `onMessage(text)` for each message, `onLink` true when it opens and false when it drops
 * (it then tries again). Returns the function that closes it for good. */
export function reconnecting(path, { onOpen = () => {}, onMessage, onLink }) {
  let socket = null;
  let closed = false;
  let delay = FIRST_DELAY_MS;
  let retry = null;
  const open = () => {
    if (closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${path}`);
    socket.onopen = () => {
      delay = FIRST_DELAY_MS;
      onOpen(socket);
      onLink(true);
    };
    socket.onmessage = (e) => {
      if (!closed) onMessage(e.data);
    };
    socket.onclose = () => {
      if (closed) return;
      onLink(false);
      retry = setTimeout(open, delay);
      delay = nextDelay(delay);
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(retry);
    // Closing a socket still connecting logs an error in the browser: it closes once open.
    if (socket?.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
    else socket?.close();
  };
}
