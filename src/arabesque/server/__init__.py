"""The play server: an HTTP lobby and a websocket protocol over the rules engine
(``arabesque serve``; docs/protocol.md)."""
