// Public API of @toolhost/oauth.
