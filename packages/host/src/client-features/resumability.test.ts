import { describe, expect, it } from 'vitest';
import { startClientFeaturesServer } from '../../../fixtures/src/client-features/client-features-server.js';
import { callToolWithFeatures } from './call-tool-with-features.js';
import { connectHttp, resultText } from './test-support.js';

describe('Streamable HTTP resumability (SDK transport, verified)', () => {
  it('honours the SSE retry field and resumes with Last-Event-ID after the stream drops', async () => {
    const fixture = await startClientFeaturesServer({ retryMs: 400 });
    const client = await connectHttp(fixture.url);
    try {
      const { result } = await callToolWithFeatures(client, { serverName: 'fixture', toolName: 'drop-stream', timeoutMs: 10_000 });
      expect(resultText(result)).toBe('answered after the stream was dropped');
      const closedAt = fixture.state.streamClosedAt ?? Number.POSITIVE_INFINITY;
      const resumed = fixture.state.getRequests.filter((request) => request.lastEventId !== undefined && request.at >= closedAt);
      expect(resumed.length).toBeGreaterThanOrEqual(1);
      // The client waited for the server's retry (400 ms), not its own 1 s default backoff.
      const delay = (resumed[0]?.at ?? 0) - closedAt;
      expect(delay).toBeGreaterThanOrEqual(350);
      expect(delay).toBeLessThan(1000);
    } finally {
      await client.close();
      await fixture.close();
    }
  });
});
