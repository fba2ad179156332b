// Public API of @toolhost/adapter-gemini.
