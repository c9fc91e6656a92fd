import { describe, expect, it } from 'vitest';
import { reportsCardOffer } from './ReportsCard';

describe('reportsCardOffer', () => {
  it("offers the card's Create Report only beside a report: with none, the header's is the one", () => {
    expect(reportsCardOffer(true, 0).create).toBe(false);
    expect(reportsCardOffer(true, 1).create).toBe(true);
    expect(reportsCardOffer(false, 3).create).toBe(false);
  });

  it('hints at creating a report only to a member who may', () => {
    expect(reportsCardOffer(true, 0).emptyText).toBe('No reports yet: create one to get the costs by e-mail');
    expect(reportsCardOffer(false, 0).emptyText).toBe('No reports yet.');
  });
});
