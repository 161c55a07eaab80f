/** The protected shell: sidebar + header + the child route; keeps the profile fresh. */
import { Suspense, useState } from 'react';
import { Box, Flex } from '@chakra-ui/react';
import { Outlet } from 'react-router';
import { useProfileRefresh } from '../../lib/auth.tsx';
import { useIsMobile } from '../../lib/use-is-mobile.ts';
import { FullScreenSpinner } from '../full-screen-spinner.tsx';
import { Header } from './header.tsx';
import { DesktopSidebar, MobileSidebar } from './sidebar.tsx';

export default function DashboardLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  useProfileRefresh();
  // One navigation per width: the hidden desktop sidebar was 134 of the frame's 325 elements on a
  // phone, rendered and styled for nothing.
  const isMobile = useIsMobile();
  return (
    <Flex minH="100dvh" bg="bg.subtle">
      {!isMobile && <DesktopSidebar />}
      <MobileSidebar open={menuOpen} onOpenChange={setMenuOpen} />
      <Flex direction="column" flex="1" minW="0">
        <Header onOpenMenu={() => setMenuOpen(true)} />
        <Box
          as="main"
          flex="1"
          px={{ base: '4', md: '6' }}
          py={{ base: '5', md: '8' }}
          maxW="7xl"
          width="full"
          mx="auto"
        >
          <Suspense fallback={<FullScreenSpinner />}>
            <Outlet />
          </Suspense>
        </Box>
      </Flex>
    </Flex>
  );
}
