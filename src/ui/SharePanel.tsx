// The top bar's "Share" popover: "Copy link" (the settings), "Share with policy" (a file always, a
// link when the weights fit), a QR code of the settings link for phones (with a word when the page
// is served on this computer only, which no phone can open), and one sentence on what travels. A
// native popover (top layer, closes on Escape or a click outside); no style attributes.

import { errorMessage } from '../core/errorMessage';
import { useRef, useState, type ToggleEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SHARE_FILE } from '../core/io/shareBundle';
import { useLab } from '../store/labStore';
import type { PolicyShare } from '../store/labState';
import { errorText } from '../store/workerText';
import { QrCode } from './QrCode';
import './SharePanel.css';

export const COPIED_MESSAGE = 'Link copied — it carries the settings, not the trained policy (use Share with policy)';
const WHAT_TRAVELS = 'A link carries the settings — preset, catalog, preference and hyperparameters — but not the ' +
  'trained policy; Share with policy adds the policy, in a file and, when it fits, in a link.';
const PANEL_ID = 'share-panel';

/** Whether a page at this host opens on this computer only (a phone that scans its address reaches nothing). */
export const localOnly = (host: string): boolean => host === 'localhost' || host === '0.0.0.0' || host === '[::1]'
  || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);

type Copied = { ok: true } | { ok: false; url: string };

export function SharePanel() {
  const s = useLab(useShallow((x) => ({
    shareLink: x.shareLink, shareWithPolicy: x.shareWithPolicy, saveShareFile: x.saveShareFile, notify: x.notify,
  })));
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState<{ url: string } | { error: string } | null>(null);
  const [copied, setCopied] = useState<Copied | null>(null);
  const [policy, setPolicy] = useState<PolicyShare | { error: string } | null>(null);
  const [policyCopied, setPolicyCopied] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const onToggle = (e: ToggleEvent<HTMLDivElement>) => {
    const isOpen = e.newState === 'open';
    setOpen(isOpen);
    if (!isOpen) return;
    setPolicy(null);
    setCopied(null);
    try {
      setLink({ url: s.shareLink() });
    } catch (err) {
      setLink({ error: errorMessage(err).replace(/^No link copied: /, '') });
    }
  };
  const copy = async () => {
    let url: string;
    try {
      url = s.shareLink();
    } catch (e) {
      s.notify('error', errorMessage(e));
      setLink({ error: errorMessage(e) });
      return;
    }
    setLink({ url });
    try {
      await navigator.clipboard.writeText(url);
      setCopied({ ok: true });
    } catch {
      setCopied({ ok: false, url }); // no clipboard permission: show the link to copy by hand
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied((c) => (c?.ok ? null : c)), 8000);
  };
  const sharePolicy = async () => {
    setBusy(true);
    setPolicyCopied(null);
    try {
      setPolicy(await s.shareWithPolicy());
    } catch (e) {
      setPolicy({ error: `The policy could not be shared: ${errorText(e)}.` });
    } finally {
      setBusy(false);
    }
  };
  const copyPolicyLink = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setPolicyCopied(true);
    } catch {
      setPolicyCopied(false);
    }
  };

  return (
    <>
      <button type="button" popoverTarget={PANEL_ID} aria-haspopup="dialog"
        title="Copy a link, share the trained policy, or show a QR code">Share</button>
      <div id={PANEL_ID} popover="auto" role="dialog" aria-label="Share this lab" className="share-panel"
        onToggle={onToggle}>
        <h2 className="share-title">Share this lab</h2>
        <p className="small">{WHAT_TRAVELS}</p>
        <div className="share-actions">
          <button type="button" onClick={() => void copy()}>Copy link</button>
          <button type="button" onClick={() => void sharePolicy()} disabled={busy}>Share with policy</button>
          {busy && <span className="small muted">bundling the policy…</span>}
        </div>
        {copied && (copied.ok
          ? <p className="small" role="status" data-testid="copied">{COPIED_MESSAGE}</p>
          : <p className="small" role="status" data-testid="copied">The clipboard was refused: copy the link by hand
            (it carries the settings, not the trained policy). <input readOnly aria-label="Link" value={copied.url}
              onFocus={(e) => e.target.select()} /></p>)}
        {policy && ('error' in policy
          ? <p className="small bad" role="alert">{policy.error}</p>
          : <div className="small policy-share" data-testid="policy-share">
              <p role="status">{policy.note}</p>
              {policy.link && <p>
                <input readOnly aria-label="Link with the policy" value={policy.link} onFocus={(e) => e.target.select()} />
                <button type="button" onClick={() => void copyPolicyLink(policy.link as string)}>Copy policy link</button>
                {policyCopied !== null && <span className="muted"> {policyCopied
                  ? 'copied' : 'the clipboard was refused: select the field and copy'}</span>}
              </p>}
              <button type="button" onClick={() => s.saveShareFile(policy.file)}>Download {SHARE_FILE}</button>
              <span className="muted"> — import it in Export / Import</span>
            </div>)}
        {open && link && ('url' in link
          ? <QrCode text={link.url} caption="Scan to open these settings on a phone (the policy stays here)." />
          : <p className="small" role="note">No QR code: {link.error}</p>)}
        {open && link && 'url' in link && localOnly(location.hostname) && (
          <p className="small" role="note" data-testid="qr-local">
            This page is served at {location.hostname}, an address that opens on this computer only: a phone that scans
            the code reaches nothing. For a class, serve the lab on the local network with <code>npm run start:lan</code>,
            open the address it prints, and show the code from there.
          </p>
        )}
        <div className="share-close"><button type="button" popoverTarget={PANEL_ID} popoverTargetAction="hide">Close</button></div>
      </div>
    </>
  );
}
