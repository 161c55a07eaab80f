import { PageHeader } from '@/components/page-header.tsx';

export default function PackagePage() {
  return <PageHeader heading="Investment Packages" description="Select a package to start or upgrade" />;
}
