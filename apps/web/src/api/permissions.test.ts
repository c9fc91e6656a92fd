import { describe, expect, it } from 'vitest';
import { refusal } from './permissions';

describe('why a role may not take an action', () => {
  it('is null for what the role may do', () => {
    expect(refusal('read', 'view')).toBeNull();
    expect(refusal('write', 'change')).toBeNull();
    expect(refusal('admin', 'manageUsers')).toBeNull();
    expect(refusal('owner', 'manageProject')).toBeNull();
  });

  it('names the member’s permission and what the action needs', () => {
    expect(refusal('read', 'change')).toBe('Your permission in this project is Read: this needs Write or higher.');
    expect(refusal('write', 'manageUsers')).toBe('Your permission in this project is Write: this needs Admin or higher.');
    expect(refusal('admin', 'manageProject')).toBe('Your permission in this project is Admin: only the project’s owners can do this.');
  });

  it('refuses while the permission is not known yet', () => {
    expect(refusal(undefined, 'change')).toMatch(/not known yet: this needs Write or higher/);
  });
});
