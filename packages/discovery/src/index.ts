// Public API of @toolhost/discovery.
