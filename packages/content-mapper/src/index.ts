// Public API of @toolhost/content-mapper.
