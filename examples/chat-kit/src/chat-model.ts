/** What one model request is given. */
export interface ChatModelRequest<TItem, TTool> {
  /** The conversation so far, oldest first (the user's message last). */
  readonly history: readonly TItem[];
  /** The host's tools in the vendor's format (may be empty). */
  readonly tools: readonly TTool[];
  /** The servers' `initialize` instructions joined into one system prompt; undefined when there are none. */
  readonly instructions: string | undefined;
}

/** What the model answered. */
export interface ChatModelReply<TItem, TResponse> {
  /** The vendor response, handed to `host.handleModelResponse`. */
  readonly response: TResponse;
  /** The items to keep in the history (the model's turn, tool calls included). */
  readonly items: readonly TItem[];
  /** The text to show the user ('' when there is none). */
  readonly text: string;
}

/**
 * One vendor's side of {@link runChat}: how a user message, a request and tool results look
 * in that vendor's API. Everything else in the chat (commands, confirmations, the loop of
 * tool rounds) is the same for every vendor.
 */
export interface ChatModel<TItem, TTool, TResponse, TToolResults> {
  /** The vendor's name in error lines (`Gemini request failed: …`). */
  readonly name: string;
  /** The history item of a message the user typed. */
  userMessage(text: string): TItem;
  /** Send one request to the model. */
  generate(request: ChatModelRequest<TItem, TTool>): Promise<ChatModelReply<TItem, TResponse>>;
  /** The history items that carry the tool results back to the model. */
  toolResultItems(toolResults: TToolResults): readonly TItem[];
}
