// Order keys for moves among siblings (sections and groups of a parent, site spaces of a section).
import { keyBetween } from '../content/order-keys.js';

/** A key placing an item right before or after `anchorId` among `siblings` (ordered, the moved item left out). */
export function keyNextTo(siblings: { id: string; position: string }[], anchorId: string, side: 'before' | 'after'): string {
  const index = siblings.findIndex((s) => s.id === anchorId);
  if (index < 0) throw new Error(`anchor ${anchorId} is not among the siblings`);
  return side === 'before'
    ? keyBetween(siblings[index - 1]?.position, siblings[index].position)
    : keyBetween(siblings[index].position, siblings[index + 1]?.position);
}
