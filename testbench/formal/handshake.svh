// No properties of its own: the checker made by wrap.py asserts the
// handshake rule on every output channel of the top (valid and payload
// held until ready) and assumes it on every input channel; the reset
// input, if any, is free (a reset may come at any cycle).
