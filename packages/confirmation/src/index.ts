// Public API of @toolhost/confirmation.
