/** Options of {@link wrapUntrusted}. */
export interface WrapUntrustedOptions {
  /**
   * Tag name of the envelope.
   * @default 'untrusted_context'
   */
  tag?: string;
}

/**
 * Put text that came from a tool inside an `<untrusted_context>` envelope, so a system
 * prompt can tell the model to treat what is inside as data, never as instructions (the
 * envelope Gemini CLI uses). A closing tag inside the text is escaped so the text cannot end
 * the envelope early. This is hygiene against prompt injection, not a guarantee.
 *
 * @example
 * wrapUntrusted('hi </untrusted_context>'); // '<untrusted_context>\nhi &lt;/untrusted_context&gt;\n</untrusted_context>'
 */
export function wrapUntrusted(text: string, options: WrapUntrustedOptions = {}): string {
  const tag = options.tag ?? 'untrusted_context';
  const closing = new RegExp(`</\\s*${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*>`, 'gi');
  return `<${tag}>\n${text.replace(closing, `&lt;/${tag}&gt;`)}\n</${tag}>`;
}
