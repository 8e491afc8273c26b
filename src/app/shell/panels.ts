/**
 * The tabs of the right-hand side panel, in order. To add a panel (the radius
 * explorer, live mode, boundary review...), write <feature>/YourPanel.tsx exporting a
 * component and add one entry here.
 */
import type { ComponentType } from 'react';
import { ShardsPanel } from '../shards/ShardsPanel';
import { RadiusPanel } from '../search/RadiusPanel';
import { LivePanel } from '../live/LivePanel';
import { ReviewPanel } from '../review/ReviewPanel';
import { MigrationPanel } from '../migration/MigrationPanel';
import { AboutPanel } from './AboutPanel';

export interface PanelDef {
  /** Stable id, also the tab's test id (`tab-<id>`). */
  id: string;
  title: string;
  Component: ComponentType;
}

export const PANELS: PanelDef[] = [
  { id: 'radius', title: 'Radius search', Component: RadiusPanel },
  { id: 'live', title: 'Live', Component: LivePanel },
  { id: 'review', title: 'Review', Component: ReviewPanel },
  { id: 'migration', title: 'Migration', Component: MigrationPanel },
  { id: 'shards', title: 'Shards', Component: ShardsPanel },
  { id: 'about', title: 'How to read', Component: AboutPanel },
];
