import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BuildTriggerIcon } from './BuildTriggerIcon';

describe('BuildTriggerIcon', () => {
  it('shows what started the build: a push a webhook, a person a manual run, another pipeline a play button', () => {
    expect(renderToStaticMarkup(<BuildTriggerIcon trigger="webhook" />)).toContain('tabler-icon-webhook');
    expect(renderToStaticMarkup(<BuildTriggerIcon trigger="manual" />)).toContain('tabler-icon-user');
    expect(renderToStaticMarkup(<BuildTriggerIcon trigger="pipeline" />)).toContain('tabler-icon-player-play');
  });
});
