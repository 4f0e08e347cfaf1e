import { useLab } from '../store/labStore';
import { recipeLine } from '../store/settingsChange';
import { useView } from '../store/viewStore';

/**
 * The training recipe in one line above the curves: reward, advantage, learning rate and its
 * schedule, B × G, epochs, where P comes from. A change in Settings shows here at once, so the
 * curves are always read beside the recipe that drew them. Its button opens Settings.
 */
export function RecipeLine() {
  const train = useLab((s) => s.train);
  const setDrawer = useView((s) => s.setDrawer);
  return (
    <p className="recipe-line small" data-testid="recipe-line">
      <span className="muted">Recipe: </span>{recipeLine(train)}{' '}
      <button type="button" className="link" onClick={() => setDrawer(true)} title="Change it in Settings → Training">change</button>
    </p>
  );
}
