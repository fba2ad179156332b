// The approval helpers and the model-output mapping, as pure functions.
import { describe, expect, it } from 'vitest';
import { findToolApproval, toolApprovalOutcome, toolApprovalResponse } from './tool-approval.js';
import { AI_7 } from './scripted-model.test-helper.js';
import { toAiSdkModelOutput } from './tool-output.js';

describe('toolApprovalResponse / toolApprovalOutcome', () => {
  it('writes each toolhost outcome as an AI SDK approval response and reads it back', () => {
    expect(toolApprovalResponse({ approvalId: 'a1', outcome: 'proceed_once' })).toEqual({
      type: 'tool-approval-response',
      approvalId: 'a1',
      approved: true,
    });
    expect(toolApprovalResponse({ approvalId: 'a1', outcome: 'proceed_always_tool', reason: 'ignored' })).toEqual({
      type: 'tool-approval-response',
      approvalId: 'a1',
      approved: true,
      reason: 'proceed_always_tool',
    });
    expect(toolApprovalResponse({ approvalId: 'a1', outcome: 'cancel', reason: 'No.' })).toEqual({
      type: 'tool-approval-response',
      approvalId: 'a1',
      approved: false,
      reason: 'No.',
    });
    for (const outcome of ['proceed_once', 'proceed_always_tool', 'proceed_always_server', 'cancel'] as const) {
      expect(toolApprovalOutcome(toolApprovalResponse({ approvalId: 'a', outcome }))).toBe(outcome);
    }
    // A denial stays a denial whatever its reason; any other reason of an approval is "once".
    expect(toolApprovalOutcome({ approved: false, reason: 'proceed_always_server' })).toBe('cancel');
    expect(toolApprovalOutcome({ approved: true, reason: 'looks fine' })).toBe('proceed_once');
  });

  it('finds the approval response of a tool call through its approval request', () => {
    const messages = [
      { role: 'user' as const, content: 'hi' },
      {
        role: 'assistant' as const,
        content: [
          { type: 'tool-call' as const, toolCallId: 'c1', toolName: 'echo', input: {} },
          { type: 'tool-approval-request' as const, approvalId: 'a1', toolCallId: 'c1' },
          { type: 'tool-approval-request' as const, approvalId: 'a2', toolCallId: 'c2' },
        ],
      },
      {
        role: 'tool' as const,
        content: [
          { type: 'tool-approval-response' as const, approvalId: 'a2', approved: false },
          { type: 'tool-approval-response' as const, approvalId: 'a1', approved: true, reason: 'proceed_always_tool' },
        ],
      },
    ];
    expect(findToolApproval(messages, 'c1')).toMatchObject({ approvalId: 'a1', approved: true });
    expect(findToolApproval(messages, 'c2')).toMatchObject({ approvalId: 'a2', approved: false });
    expect(findToolApproval(messages, 'c3')).toBeUndefined();
    expect(findToolApproval(undefined, 'c1')).toBeUndefined();
  });
});

describe('toAiSdkModelOutput', () => {
  it('joins text parts, maps images to image-data and other media to file-data (ai 7: file parts), and sends anything else as json', () => {
    expect(
      toAiSdkModelOutput({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
          { type: 'inlineData', mimeType: 'IMAGE/JPEG', data: 'AAAA', source: 'image' },
          { type: 'inlineData', mimeType: 'application/pdf', data: 'BBBB', source: 'resource', uri: 'file:///docs/report.pdf?x=1' },
        ],
        isError: false,
      }),
    ).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: 'a\nb' },
        ...(AI_7
          ? [
              { type: 'file', mediaType: 'IMAGE/JPEG', data: { type: 'data', data: 'AAAA' } },
              { type: 'file', mediaType: 'application/pdf', data: { type: 'data', data: 'BBBB' }, filename: 'report.pdf' },
            ]
          : [
              { type: 'image-data', data: 'AAAA', mediaType: 'IMAGE/JPEG' },
              { type: 'file-data', data: 'BBBB', mediaType: 'application/pdf', filename: 'report.pdf' },
            ]),
      ],
    });
    expect(toAiSdkModelOutput({ content: [{ type: 'inlineData', mimeType: 'audio/wav', data: 'CCCC' }], isError: false })).toEqual({
      type: 'content',
      value: [
        AI_7
          ? { type: 'file', mediaType: 'audio/wav', data: { type: 'data', data: 'CCCC' } }
          : { type: 'file-data', data: 'CCCC', mediaType: 'audio/wav' },
      ],
    });
    expect(toAiSdkModelOutput({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({ type: 'error-text', value: 'boom' });
    expect(toAiSdkModelOutput({ answer: 42 })).toEqual({ type: 'json', value: { answer: 42 } });
    expect(toAiSdkModelOutput(undefined)).toEqual({ type: 'json', value: null });
  });
});
