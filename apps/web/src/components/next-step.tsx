/**
 * Empty states that suggest the next step: a member without a package is sent to
 * the package page; a member without a downline gets the referral links to share. Drawn with the
 * first screen's classes: the dashboard's home shows them.
 */
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { LuPackagePlus, LuShare2 } from 'react-icons/lu';
import { MSG } from '@md/shared';
import { useAuth } from '@/lib/auth.tsx';
import { useMessageText, useT } from '@/lib/i18n/i18n.tsx';
import { numberOf, recordOf } from '@/lib/guards.ts';
import { useTRPC } from '@/lib/trpc.ts';
import { shareOrCopy } from '../lib/copy.ts';
import { referralLink } from './shell/header.tsx';

/**
 * What the analytics say about the member's packages and team: undefined until they answer (or when
 * they fail: a next step is only suggested on figures the server gave).
 */
export function useStartingPoint(): {
  hasPackage: boolean | undefined;
  hasTeam: boolean | undefined;
  hasLegVolume: boolean | undefined;
} {
  const trpc = useTRPC();
  // The page's own read, joined: mounting fetches nothing again (a failed read stays the page's to retry).
  const query = useQuery({
    ...trpc['user_analytics.view_user_analytics'].queryOptions({}),
    retryOnMount: false,
    refetchOnMount: false,
  });
  const analytics = recordOf(recordOf(query.data)?.Success);
  if (!analytics) return { hasPackage: undefined, hasTeam: undefined, hasLegVolume: undefined };
  return {
    hasPackage: (numberOf(analytics.Active_Subscriptions) ?? 0) > 0,
    hasTeam: (numberOf(analytics.Team_Size) ?? 0) > 0 || (numberOf(analytics.Direct_Referrals) ?? 0) > 0,
    // Spillover places others' recruits on a member's legs: volume there without a sponsored team.
    hasLegVolume: (numberOf(analytics.Binary_Left) ?? 0) > 0 || (numberOf(analytics.Binary_Right) ?? 0) > 0,
  };
}

/** `text`: the page's own wording, in the member's language; the home's by default. */
export function ChoosePackage({ text }: { text?: string }) {
  const t = useT();
  return (
    <div className="fs-next-step" data-testid="next-step-package">
      <div className="fs-next-step-body">
        <p>{text ?? t('common.nextStep.noPackage')}</p>
        <RouterLink to="/dashboard/package" className="fs-next-step-button">
          <LuPackagePlus aria-hidden /> {t('common.nextStep.choosePackage')}
        </RouterLink>
      </div>
    </div>
  );
}

/** Both registration links (left and right leg), shared or copied. `text`: the page's own wording. */
export function ShareYourLink({ text }: { text?: string }) {
  const t = useT();
  const messageText = useMessageText();
  const username = useAuth().user?.username ?? '';
  if (!username) return null;
  const share = (side: 'left' | 'right') => {
    const url = referralLink(window.location.origin, username, side);
    void shareOrCopy(
      { url, title: t('common.joinMyTeam') },
      messageText(MSG.copiedLink(url)),
      t('common.copyFailed'),
    );
  };
  return (
    <div className="fs-next-step" data-testid="next-step-share">
      <div className="fs-next-step-body">
        <p>{text ?? t('common.nextStep.noTeam')}</p>
        <div className="fs-next-step-actions">
          <button type="button" className="fs-next-step-button" onClick={() => share('left')}>
            <LuShare2 aria-hidden /> {t('common.nextStep.shareLeft')}
          </button>
          <button type="button" className="fs-next-step-button-outline" onClick={() => share('right')}>
            <LuShare2 aria-hidden /> {t('common.nextStep.shareRight')}
          </button>
        </div>
      </div>
    </div>
  );
}
