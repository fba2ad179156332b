// Public API of @toolhost/host.
