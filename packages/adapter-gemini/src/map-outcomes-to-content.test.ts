import { describe, expect, it } from 'vitest';
import type { ToolCallOutcome } from '@toolhost/contract';
import { createGeminiAdapter } from './create-gemini-adapter.js';

const PNG = 'iVBORw0KGgo=';
const WAV = 'UklGRiQAAABXQVZF';

const richOutcome: ToolCallOutcome = {
  call: { id: 'call-1', name: 'logo', arguments: {} },
  parts: [
    { type: 'text', text: 'Here is the logo you requested.\nThe logo was created in 2025.' },
    { type: 'inlineData', mimeType: 'image/png', data: PNG },
    { type: 'inlineData', mimeType: 'audio/wav', data: WAV },
  ],
  isError: false,
  structuredContent: { year: 2025 },
};

const failedOutcome: ToolCallOutcome = {
  call: { name: 'fail', arguments: {} },
  parts: [{ type: 'text', text: 'disk full' }],
  isError: true,
};

describe('createGeminiAdapter().toToolResults', () => {
  it('gives one functionResponse with all text, then one inlineData part per image or audio', () => {
    const content = createGeminiAdapter().toToolResults([richOutcome]);
    expect(content).toEqual({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call-1',
            name: 'logo',
            response: { output: 'Here is the logo you requested.\nThe logo was created in 2025.' },
          },
        },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { inlineData: { mimeType: 'audio/wav', data: WAV } },
      ],
    });
  });

  it('marks failures with `error` and `isError` and keeps each call followed by its own media', () => {
    const content = createGeminiAdapter().toToolResults([failedOutcome, richOutcome]);
    expect(content.parts?.map((part) => Object.keys(part)[0])).toEqual([
      'functionResponse',
      'functionResponse',
      'inlineData',
      'inlineData',
    ]);
    expect(content.parts?.[0]?.functionResponse).toEqual({
      name: 'fail',
      response: { error: 'disk full', isError: true },
    });
  });

  it('puts media inside functionResponse.parts and adds structuredContent when configured', () => {
    const adapter = createGeminiAdapter({ mediaPlacement: 'function-response', includeStructuredContent: true });
    const content = adapter.toToolResults([richOutcome]);
    expect(content.parts).toHaveLength(1);
    const functionResponse = content.parts?.[0]?.functionResponse;
    expect(functionResponse?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: PNG } },
      { inlineData: { mimeType: 'audio/wav', data: WAV } },
    ]);
    expect(functionResponse?.response).toMatchObject({ structuredContent: { year: 2025 } });
  });

  it('says the tool failed when an error outcome has no text', () => {
    const content = createGeminiAdapter().toToolResults([{ call: { name: 'x', arguments: {} }, parts: [], isError: true }]);
    expect(content.parts?.[0]?.functionResponse?.response).toEqual({ error: "Tool 'x' failed.", isError: true });
  });
});
