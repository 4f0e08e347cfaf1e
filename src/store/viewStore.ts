// How the page is shown, apart from what it trains: the theme (kept in this browser), classroom
// mode and the controls the teacher hid (kept in the link: ?classroom=1&hide=…), the settings
// drawer, the bottom tab on show, and the region the current lesson spotlights.

import { create } from 'zustand';
import { queryString, readView, withView } from './urlState';
import type { TradeoffAxis } from '../worker/protocol';

export type Theme = 'light' | 'dark';

/** Controls a teacher can hide in classroom mode (ids kept in the link's `hide`). */
export const HIDEABLE = [
  { id: 'settings', label: 'Settings drawer' },
  { id: 'backend', label: 'Backend selector' },
  { id: 'seed', label: 'Seed' },
  { id: 'speed', label: 'Speed' },
  { id: 'safety', label: 'Undo and Restore best' },
  { id: 'share', label: 'Share' },
  { id: 'diagnostics', label: 'Diagnostics tab' },
  { id: 'research', label: 'Data, Paper vs lab, Export tabs' },
] as const;
export type Hideable = (typeof HIDEABLE)[number]['id'];

/** What classroom mode hides until the teacher chooses otherwise. */
export const CLASSROOM_DEFAULT_HIDE: Hideable[] = ['settings', 'backend', 'seed', 'safety'];

const THEME_KEY = 'orchestra-lab.theme';

function initialTheme(): Theme {
  try {
    const saved = localStorage.getItem(THEME_KEY);
    if (saved === 'light' || saved === 'dark') return saved;
  } catch { /* storage refused: follow the system */ }
  return typeof matchMedia !== 'undefined' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

/** Puts classroom mode and the hidden controls into the address bar, leaving the lab's own settings as they are. */
function writeViewToUrl(classroom: boolean, hide: readonly string[]): void {
  if (typeof location === 'undefined') return;
  const search = queryString(withView(new URLSearchParams(location.search), { classroom, hide: [...hide] }));
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

export interface ViewState {
  theme: Theme;
  classroom: boolean;
  hide: Hideable[];
  drawer: boolean;
  /** The bottom panel's tab on show. */
  tab: string;
  /** The region (data-region) the current lesson points at, or null. */
  spotlight: string | null;
  /** What the trade-off view puts on its x-axis (an instruction preset picks the one it acts on). */
  tradeoffAxis: TradeoffAxis;
  setTradeoffAxis(axis: TradeoffAxis): void;
  setTheme(t: Theme): void;
  setClassroom(on: boolean): void;
  setHidden(id: Hideable, hidden: boolean): void;
  setDrawer(open: boolean): void;
  showTab(name: string): void;
  setSpotlight(region: string | null): void;
}

const initial = readView(typeof location === 'undefined' ? '' : location.search);
const known = new Set<string>(HIDEABLE.map((h) => h.id));

export const useView = create<ViewState>((set, get) => ({
  theme: initialTheme(),
  classroom: initial.classroom,
  hide: initial.classroom ? (initial.hide === null ? [...CLASSROOM_DEFAULT_HIDE] : initial.hide.filter((h): h is Hideable => known.has(h))) : [],
  drawer: false,
  tab: 'Slow motion',
  spotlight: null,
  tradeoffAxis: 'cost',
  setTradeoffAxis(tradeoffAxis) {
    set({ tradeoffAxis });
  },
  setTheme(theme) {
    set({ theme });
    try { localStorage.setItem(THEME_KEY, theme); } catch { /* not kept: fine */ }
  },
  setClassroom(on) {
    const hide = on ? [...CLASSROOM_DEFAULT_HIDE] : [];
    set({ classroom: on, hide, drawer: false });
    writeViewToUrl(on, hide);
  },
  setHidden(id, hidden) {
    const hide = hidden ? [...new Set([...get().hide, id])] : get().hide.filter((h) => h !== id);
    set({ hide });
    writeViewToUrl(get().classroom, hide);
  },
  setDrawer(open) {
    set({ drawer: open });
  },
  showTab(name) {
    set({ tab: name });
  },
  setSpotlight(region) {
    set({ spotlight: region });
  },
}));

/** True when classroom mode hides `id`. */
export const useHidden = (id: Hideable): boolean => useView((s) => s.classroom && s.hide.includes(id));
