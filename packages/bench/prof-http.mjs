import { McpToolHost } from '@toolhost/host';
import { startScaleServers, connectSdkHttpEchoClient } from './dist/index.js';
const which = process.argv[2] ?? 'host';
const revision = process.argv[5] ?? '2025-11-25';
const N = Number(process.argv[3] ?? 5000), W = Number(process.argv[4] ?? 2000);
const servers = await startScaleServers(1, revision);
const url = servers.urls[0];
let run, close;
if (which === 'host') {
  const host = await McpToolHost.create({ settings: { mcpServers: { scale: { httpUrl: url, trust: true } } } });
  await host.discover();
  const echo = host.servers.listTools().find((t) => t.originalName === 'echo');
  console.log(host.servers.status().servers[0].protocolVersion);
  let i = 0;
  run = async () => { const r = await host.callTool({ name: echo.name, arguments: { message: 'm' + i++ } }); if (r.isError) throw new Error(r.display); };
  close = () => host.close();
} else {
  const c = await connectSdkHttpEchoClient(url); let i = 0;
  run = () => c.call('m' + i++); close = () => c.close();
}
for (let i = 0; i < W; i++) await run();
const t0 = process.hrtime.bigint(); const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) await run();
const t1 = process.hrtime.bigint(); const c1 = process.cpuUsage(c0);
console.log(which, revision, 'wall us/call', (Number(t1 - t0) / 1000 / N).toFixed(0), 'cpu us/call', ((c1.user + c1.system) / N).toFixed(0));
await close(); await servers.close();
