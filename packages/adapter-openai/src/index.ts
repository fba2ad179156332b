// Public API of @toolhost/adapter-openai.
