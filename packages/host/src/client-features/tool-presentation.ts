import type { Tool } from '@toolhost/connection';

/** An icon a server gives for a tool (2025-11-25 `icons`). */
export interface ToolIcon {
  /** Image URL (`https:` or `data:`). */
  readonly src: string;
  /** MIME type, when given. */
  readonly mimeType?: string;
  /** Sizes such as `48x48` or `any`, when given. */
  readonly sizes?: readonly string[];
  /** `light` or `dark`, when the icon is for one theme only. */
  readonly theme?: string;
}

/** What a host needs to display a tool, beyond its name and description. */
export interface ToolPresentation {
  /** Display title: `title`, else `annotations.title`, else the name. */
  readonly title: string;
  /** MCP annotations (`readOnlyHint`, `destructiveHint`, `idempotentHint`, `openWorldHint`, `title`). */
  readonly annotations: Readonly<Record<string, unknown>>;
  /** Icons with a safe scheme (`https:` or `data:`); others are dropped. */
  readonly icons: readonly ToolIcon[];
  /** The tool's `outputSchema`, when it declares one. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
}

function safeIcon(icon: unknown): ToolIcon | undefined {
  if (typeof icon !== 'object' || icon === null) return undefined;
  const { src, mimeType, sizes, theme } = icon as Record<string, unknown>;
  if (typeof src !== 'string' || !/^(https:|data:)/i.test(src)) return undefined;
  return {
    src,
    ...(typeof mimeType === 'string' ? { mimeType } : {}),
    ...(Array.isArray(sizes) ? { sizes: sizes.filter((size): size is string => typeof size === 'string') } : {}),
    ...(typeof theme === 'string' ? { theme } : {}),
  };
}

/** The display data of an MCP tool: title, annotations, icons (safe schemes only), output schema. */
export function getToolPresentation(tool: Tool): ToolPresentation {
  const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
  const annotationTitle = typeof annotations.title === 'string' ? annotations.title : undefined;
  const icons = Array.isArray((tool as { icons?: unknown }).icons) ? (tool as { icons: unknown[] }).icons : [];
  return {
    title: tool.title ?? annotationTitle ?? tool.name,
    annotations,
    icons: icons.map(safeIcon).filter((icon): icon is ToolIcon => icon !== undefined),
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
  };
}
