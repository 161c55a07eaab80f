-- No query reads transfers by (member_id, created_at) since the earning history became a key range
-- of earning_entries (0008): statements, activity, payout reports and the ledger check read the
-- accounts' (account, time) indexes or trans_id. Every transfer still wrote an entry into it, in
-- member order, a random page for each daily-run payout.
DROP INDEX IF EXISTS `transfers_member_time`;
