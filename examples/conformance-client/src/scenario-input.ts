/** What the conformance runner gives the client. */
export interface ScenarioInput {
  /** The scenario's MCP endpoint (the runner appends it to the command line). */
  readonly serverUrl: string;
  /** `MCP_CONFORMANCE_SCENARIO`. */
  readonly scenario: string;
  /** `MCP_CONFORMANCE_CONTEXT`, parsed (client credentials, the tool calls to make, and the like), when set. */
  readonly context?: Readonly<Record<string, unknown>>;
  /**
   * `MCP_CONFORMANCE_PROTOCOL_VERSION` (see `requestedProtocolVersion`): the revision to pin in the
   * server entry (`protocolVersion`). Without it the host negotiates.
   */
  readonly protocolVersion?: string;
  /** Where progress lines go (stderr in the binary). */
  readonly log: (line: string) => void;
}
