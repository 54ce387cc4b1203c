package stream

// SocketReader is implemented by a decoder whose turn can leave the
// response it started on for a WebSocket the page keeps (ChatGPT's
// stream_handoff; Result.Handoff). WriteSocket reads one message a socket
// of the tab received (any socket: the decoder picks its turn's) and
// returns how many of the turn's stream items it took from it; the turn
// then completes from them as from the response.
type SocketReader interface {
	WriteSocket(msg []byte) int
}
