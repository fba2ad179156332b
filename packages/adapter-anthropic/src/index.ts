// Public API of @toolhost/adapter-anthropic.
