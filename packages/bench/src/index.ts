// Public API of @toolhost/bench.
