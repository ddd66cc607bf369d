import { describe, expect, it } from 'vitest';
import { paginationWindow } from '../../src/components/pagination-window';

describe('the pagination window', () => {
  it('shows every page when there are seven or fewer', () => {
    expect(paginationWindow(1, 1)).toEqual([1]);
    expect(paginationWindow(3, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(paginationWindow(7, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows no buttons when there are no pages', () => {
    expect(paginationWindow(1, 0)).toEqual([]);
  });

  it('centres seven buttons on the current page', () => {
    expect(paginationWindow(10, 20)).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });

  it('keeps seven buttons at the start and at the end', () => {
    expect(paginationWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(paginationWindow(3, 20)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(paginationWindow(20, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
    expect(paginationWindow(18, 20)).toEqual([14, 15, 16, 17, 18, 19, 20]);
  });

  it('clamps a current page outside the range', () => {
    expect(paginationWindow(99, 9)).toEqual([3, 4, 5, 6, 7, 8, 9]);
    expect(paginationWindow(0, 9)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });
});
