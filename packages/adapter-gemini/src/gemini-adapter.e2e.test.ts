// End to end: @google/genai client → msw (Gemini API) → McpToolHost → real stdio MCP server → next request.
import { GoogleGenAI, type Content, type FunctionDeclaration, type GenerateContentResponse } from '@google/genai';
import { createFixtureHost, isPng } from '@toolhost-internal/test-support';
import type { ConfirmationRequest } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from './create-gemini-adapter.js';

const bodies: Record<string, unknown>[] = [];

const api = setupServer(
  http.post(/generativelanguage\.googleapis\.com\/v1beta\/models\/gemini-test:generateContent$/, async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    const parts =
      bodies.length === 1 ? [{ functionCall: { id: 'call-1', name: 'mixed-content', args: {} } }] : [{ text: 'I see a one-pixel image.' }];
    return HttpResponse.json({ candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] });
  }),
);

let host: McpToolHost<FunctionDeclaration, GenerateContentResponse | Content, Content>;
let confirmations: ConfirmationRequest[];

beforeAll(async () => {
  api.listen({ onUnhandledRequest: 'error' });
  ({ host, confirmations } = await createFixtureHost(createGeminiAdapter()));
});

afterAll(async () => {
  await host?.close();
  api.close();
});

describe('Gemini adapter end to end', () => {
  it('sends the MCP result, images included, in the request after the function call', async () => {
    const ai = new GoogleGenAI({ apiKey: 'test-key' });
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Show me everything.' }] }];
    const config = { tools: [{ functionDeclarations: host.listTools() }] };

    const first = await ai.models.generateContent({ model: 'gemini-test', contents, config });
    const declared = (bodies[0]?.['tools'] as { functionDeclarations: { name: string }[] }[])[0]?.functionDeclarations;
    expect(declared?.map((d) => d.name)).toContain('mixed-content');
    // A real server's schema (zod → JSON Schema with $schema and additionalProperties) sanitised for `parameters`.
    const echo = declared?.find((d) => d.name === 'echo') as { parameters?: Record<string, unknown> } | undefined;
    // (the SDK upper-cases types on the wire: OBJECT, STRING)
    expect(echo?.parameters).toMatchObject({ type: 'OBJECT', properties: { message: { type: 'STRING' } }, required: ['message'] });
    expect(echo?.parameters).not.toHaveProperty('$schema');
    expect(echo?.parameters).not.toHaveProperty('additionalProperties');

    const handled = await host.handleModelResponse(first);
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.mcpDetails).toMatchObject({ serverName: 'fixture', toolName: 'mixed-content' });
    const outcome = handled.outcomes[0];
    expect(outcome?.isError).toBe(false);

    contents.push(first.candidates?.[0]?.content as Content, handled.toolResults!);
    const second = await ai.models.generateContent({ model: 'gemini-test', contents, config });
    expect(second.text).toBe('I see a one-pixel image.');

    const sent = (bodies[1]?.['contents'] as Content[])[2];
    expect(sent?.role).toBe('user');
    const [responsePart, ...mediaParts] = sent?.parts ?? [];
    expect(responsePart?.functionResponse).toMatchObject({ id: 'call-1', name: 'mixed-content' });
    const output = String(responsePart?.functionResponse?.response?.['output']);
    expect(output).toContain('first text block');
    expect(output).toContain('second text block');
    expect(output).toContain('embedded resource text');

    const mimeTypes = mediaParts.map((part) => part.inlineData?.mimeType);
    expect(mimeTypes).toEqual(['image/png', 'audio/wav', 'application/octet-stream']);
    const image = mediaParts[0]?.inlineData?.data ?? '';
    expect(isPng(image)).toBe(true);
    const hostImage = outcome?.parts.find((part) => part.type === 'inlineData' && part.mimeType === 'image/png');
    expect(hostImage).toMatchObject({ data: image });
  });
});
