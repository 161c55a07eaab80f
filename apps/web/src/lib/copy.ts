/** Copies a text and confirms with a 2-second toast; on phones, shares a link with the system sheet. */
import { notify } from './toaster.ts';

/** The English text; screens pass `common.copyFailed` in the member's language. */
const COPY_FAILED = 'Could not copy to the clipboard';

/** `failure`: what a refused copy says, in the member's language (`t('common.copyFailed')`). */
export async function copyText(text: string, confirmation: string, failure = COPY_FAILED) {
  try {
    await navigator.clipboard.writeText(text);
    notify.copied(confirmation);
  } catch {
    notify.error(failure);
  }
}

/**
 * Opens the system share sheet (Web Share API) where the browser has one; elsewhere, or when the
 * sheet fails, copies the link instead. Closing the sheet without choosing is not an error.
 */
export async function shareOrCopy(
  share: { url: string; title: string; text?: string },
  confirmation: string,
  failure = COPY_FAILED,
): Promise<'shared' | 'cancelled' | 'copied'> {
  const data: ShareData = { title: share.title, url: share.url, ...(share.text ? { text: share.text } : {}) };
  if (
    typeof navigator.share === 'function' &&
    (typeof navigator.canShare !== 'function' || navigator.canShare(data))
  ) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (error) {
      if ((error as Error | null)?.name === 'AbortError') return 'cancelled';
      // NotAllowedError and the like: the copy below still gets the link to the member.
    }
  }
  await copyText(share.url, confirmation, failure);
  return 'copied';
}
