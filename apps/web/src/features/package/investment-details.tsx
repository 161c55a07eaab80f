/** "How it works": the plan text of spec §1. */
import { List } from '@chakra-ui/react';
import { SectionCard } from '@/components/section-card.tsx';

const PLAN_TEXT = [
  'Daily ROI is 1-2% of the package amount, Monday to Friday.',
  'Earnings are capped at 3x the investment.',
  'Binary income is 10%, calculated daily at 11 AM UK time.',
  'Level income is L1 10% and L2-L5 1%.',
  'Deposits are accepted in USDT (BEP20) only.',
  'Purchased packages cannot be cancelled.',
] as const;

export function InvestmentDetails() {
  return (
    <SectionCard title="Investment Details" description="How it works">
      <List.Root gap="2" ps="5">
        {PLAN_TEXT.map((line) => (
          <List.Item key={line}>{line}</List.Item>
        ))}
      </List.Root>
    </SectionCard>
  );
}
