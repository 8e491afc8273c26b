/**
 * The review's parameters of the link (its entry `url.panel` in src/app/features.ts;
 * shell/linkCodec.ts loops over the list): `review=local` reopens the candidate kept in this browser
 * (shell/keptWork.ts) and replaces `candidate=`, which reviewDriver.ts reads itself (url.ts
 * candidateUrl). Both make a link open still.
 */
import type { PanelParams } from '../shell/linkCodec';
import { keptCandidateIsLocal } from '../shell/keptWork';

declare module '../shell/linkCodec' {
  interface UrlShell {
    /** `review=local`: reopen the candidate kept in this browser. */
    reviewLocal: boolean;
  }
}

export const REVIEW_URL: PanelParams = {
  keys: ['review', 'candidate'],
  still: ['candidate', 'review'],
  defaults: () => ({ reviewLocal: false }),
  parse(q, shell, problems) {
    const review = q.get('review');
    if (review !== null) {
      if (review === 'local') shell.reviewLocal = true;
      else problems.push(`review=${review} is ignored: expected review=local (the candidate kept in this browser)`);
    }
  },
  format(shell, q) {
    if (shell.reviewLocal) {
      // The candidate kept in this browser replaced the one the link named.
      q.set('review', 'local');
      q.delete('candidate');
    } else q.delete('review');
  },
  of: (s) => ({ reviewLocal: keptCandidateIsLocal(s) }),
  // Applied at boot by shell/keptWork.ts startKeeping, which reopens the kept candidate.
};
