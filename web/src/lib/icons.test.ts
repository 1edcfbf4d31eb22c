import { Icons, IconSize } from '@blueprintjs/icons';
import { describe, expect, it, vi } from 'vitest';
import { loadIconsOnlyAsComponents } from './icons';

describe('Blueprint icon loading', () => {
  it('never fetches the paths of all icons for an icon given by name', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    loadIconsOnlyAsComponents();
    await Icons.load('add', IconSize.STANDARD);
    // With Blueprint's default loader, 'add' would now have the paths of the full set.
    expect(Icons.getPaths('add', IconSize.STANDARD)).toEqual([]);
    expect(error).toHaveBeenCalledWith(expect.stringContaining('icon "add" given by name'));
  });
});
