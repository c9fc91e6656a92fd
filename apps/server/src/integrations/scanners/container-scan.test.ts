import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { ContainerScan } from '@gantry/contracts';
import { parseTrivy, parseGrype, parseScannerOutput, containerScanReport, scannerCommand } from './container-scan.js';

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name), 'utf8');

describe('container scanner output', () => {
  it('counts Trivy findings by severity, every result included (UNKNOWN is undefined)', () => {
    expect(parseTrivy(JSON.parse(fixture('trivy.json')))).toEqual({ CRITICAL: 1, HIGH: 2, MEDIUM: 1, LOW: 1, UNDEFINED: 1 });
  });

  it('counts Grype matches by severity (Negligible is informational)', () => {
    expect(parseGrype(JSON.parse(fixture('grype.json')))).toEqual({ CRITICAL: 1, HIGH: 1, MEDIUM: 1, INFORMATIONAL: 1, UNDEFINED: 1 });
  });

  it('recognises the scanner by its output', () => {
    expect(parseScannerOutput(fixture('trivy.json')).scanner).toBe('trivy');
    expect(parseScannerOutput(fixture('grype.json')).scanner).toBe('grype');
    expect(parseScannerOutput('{"SchemaVersion":2,"ArtifactName":"x"}')).toEqual({ scanner: 'trivy', severityCounts: {} });
    expect(() => parseScannerOutput('FATAL no such file')).toThrow(/did not print JSON/);
    expect(() => parseScannerOutput('{"a":1}')).toThrow(/neither Trivy nor Grype/);
  });

  it('makes a report the contract accepts: COMPLETE with counts, FAILED with the reason', () => {
    const done = containerScanReport({ imageName: 'app', imageTag: 'abc1234', scanner: 'trivy', output: fixture('trivy.json') });
    expect(ContainerScan.parse(done)).toEqual({
      imageName: 'app',
      imageTag: 'abc1234',
      status: 'COMPLETE',
      statusDescription: 'Found 1 critical, 2 high, 1 medium, 1 low, 1 undefined',
      severityCounts: { CRITICAL: 1, HIGH: 2, MEDIUM: 1, LOW: 1, UNDEFINED: 1 },
      scanner: 'trivy',
    });
    const bad = containerScanReport({ imageName: 'app', imageTag: 't', scanner: 'grype', output: 'oops' });
    expect(ContainerScan.parse(bad)).toMatchObject({ status: 'FAILED', statusDescription: 'the container scanner did not print JSON', severityCounts: {} });
    expect(containerScanReport({ imageName: 'a', imageTag: 't', scanner: 'trivy', error: 'exit 2' })).toMatchObject({
      status: 'FAILED',
      statusDescription: 'exit 2',
    });
  });

  it('splits the scanner command without a shell and puts the archive in', () => {
    expect(scannerCommand('/usr/bin/trivy image --format json --input {archive}', '/p/image.tar')).toEqual({
      command: '/usr/bin/trivy',
      args: ['image', '--format', 'json', '--input', '/p/image.tar'],
      name: 'trivy',
    });
    expect(scannerCommand('grype oci-archive:{archive} -o json', '/p/i.tar').args).toEqual(['oci-archive:/p/i.tar', '-o', 'json']);
  });
});
