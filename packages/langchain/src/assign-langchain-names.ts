/** The longest tool name every LangChain chat model integration accepts (OpenAI and Anthropic: 64). */
export const LANGCHAIN_TOOL_NAME_MAX_LENGTH = 64;

function normalize(hostName: string): string {
  return (hostName.replace(/[^a-zA-Z0-9_-]/g, '_') || '_').slice(0, LANGCHAIN_TOOL_NAME_MAX_LENGTH);
}

/**
 * Characters outside `a-z A-Z 0-9 _ -` become `_` (OpenAI and Anthropic reject the dot that
 * toolhost's default names may hold), at most 64 characters. A name that is already valid is
 * kept; a changed name that another tool already has gets `_2`, `_3`, ... Returns one name per
 * host name, in order.
 */
export function assignLangChainNames(hostNames: readonly string[]): string[] {
  const taken = new Set(hostNames.filter((hostName) => normalize(hostName) === hostName));
  return hostNames.map((hostName) => {
    const base = normalize(hostName);
    if (base === hostName) return hostName;
    let name = base;
    for (let n = 2; taken.has(name); n += 1) {
      const suffix = `_${n}`;
      name = `${base.slice(0, LANGCHAIN_TOOL_NAME_MAX_LENGTH - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}
