import { describe, expect, it } from 'vitest';
import { cardColumns } from './CardGrid';

describe('card grid columns', () => {
  it('gains a column where the grid holds one more card of the narrowest width and its gap', () => {
    expect(cardColumns(300, 3)).toEqual({ base: 1, '620px': 2, '940px': 3 });
    expect(cardColumns(200, 4)).toEqual({ base: 1, '420px': 2, '640px': 3, '860px': 4 });
    // even: four tiles take 1, 2 or 4 columns, never 3 and a short row of 1
    expect(cardColumns(220, 4, true)).toEqual({ base: 1, '460px': 2, '940px': 4 });
    expect(cardColumns(300, 1)).toEqual({ base: 1 });
  });
});
