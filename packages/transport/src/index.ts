// Public API of @toolhost/transport.
