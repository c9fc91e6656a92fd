/** Where socket.io listens; apart from the event schemas so a client needing only the path loads no schema. */
export const REALTIME_PATH = '/ms-realtime/websockets/';
