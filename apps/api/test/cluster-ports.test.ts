import { describe, expect, it } from 'vitest';
import { freePort } from '../scripts/cluster/processes';

// The cluster harness (npm run cluster:test) hands out every port before the processes that bind
// them start: a port handed out twice made HAProxy fail to bind one a Patroni node had taken.
describe("the cluster harness's ports", () => {
  it('are never handed out twice in one process', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) expect(port).toBeGreaterThan(0);
  });
});
