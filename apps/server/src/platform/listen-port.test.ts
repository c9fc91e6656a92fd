import { describe, it, expect } from 'vitest';
import { FALLBACK_PORTS, listenOnPort } from './listen-port.js';

const refusal = (code: string) => Object.assign(new Error(`listen ${code}`), { code });

/** A listen that refuses the given ports with their codes and records every port tried. */
function fakeListen(refused: Record<number, string>) {
  const tried: number[] = [];
  const listen = async (port: number) => {
    tried.push(port);
    if (refused[port]) throw refusal(refused[port]);
    return `http://0.0.0.0:${port}`;
  };
  return { listen, tried };
}

describe('the port Gantry listens on', () => {
  it('is 80 when PORT is not set and 80 may be bound', async () => {
    const { listen, tried } = fakeListen({});
    expect(await listenOnPort(listen, {})).toEqual({ address: 'http://0.0.0.0:80' });
    expect(tried).toEqual([80]);
  });

  it('falls back to 8080 when port 80 is refused (not root), and says why', async () => {
    const { listen, tried } = fakeListen({ 80: 'EACCES' });
    expect(await listenOnPort(listen, {})).toEqual({
      address: 'http://0.0.0.0:8080',
      fallback: 'Port 80 needs root (ports below 1024 do), so Gantry took the first free port from 8080; set PORT to choose one.',
    });
    expect(tried).toEqual([80, 8080]);
  });

  it('takes the next free port when 8080 is taken too', async () => {
    const { listen, tried } = fakeListen({ 80: 'EADDRINUSE', 8080: 'EADDRINUSE', 8081: 'EADDRINUSE' });
    expect(await listenOnPort(listen, {})).toEqual({
      address: 'http://0.0.0.0:8082',
      fallback: 'Port 80 is in use, so Gantry took the first free port from 8080; set PORT to choose one.',
    });
    expect(tried).toEqual([80, 8080, 8081, 8082]);
  });

  it('falls back when port 80 is taken, and lets the system choose when every fallback port is', async () => {
    const refused = Object.fromEntries([80, ...FALLBACK_PORTS].map((p) => [p, 'EADDRINUSE']));
    const { listen, tried } = fakeListen(refused);
    expect(await listenOnPort(listen, {})).toEqual({
      address: 'http://0.0.0.0:0',
      fallback: 'Port 80 is in use, so Gantry took a free port; set PORT to choose one.',
    });
    expect(tried.at(-1)).toBe(0);
  });

  it('uses PORT when set, and never another port when it is taken', async () => {
    const { listen, tried } = fakeListen({ 3000: 'EADDRINUSE' });
    expect(await listenOnPort(listen, { port: 8443 })).toEqual({ address: 'http://0.0.0.0:8443' });
    await expect(listenOnPort(listen, { port: 3000 })).rejects.toThrow(
      'Port 3000 (PORT=3000) is already in use: stop what listens there, or set PORT to a free port',
    );
    expect(tried).toEqual([8443, 3000]);
  });

  it('says what to do when PORT is a privileged port and Gantry is not root', async () => {
    const { listen } = fakeListen({ 443: 'EACCES' });
    await expect(listenOnPort(listen, { port: 443 })).rejects.toThrow(
      'Port 443 (PORT=443) needs root (ports below 1024): run Gantry as root, or set PORT to 1024 or above (e.g. PORT=8080)',
    );
  });

  it('passes any other listen error on unchanged', async () => {
    const { listen } = fakeListen({ 80: 'EADDRNOTAVAIL' });
    await expect(listenOnPort(listen, {})).rejects.toMatchObject({ code: 'EADDRNOTAVAIL' });
  });
});
