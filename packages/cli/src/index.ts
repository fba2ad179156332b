// Public API of @toolhost/cli.
