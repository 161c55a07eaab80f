-- The binary and rank volume rows carry their text too (as migration 0020's tables): `row_json` is
-- the JSON their pages answer for the row, written by a trigger when the row is inserted (the daily
-- runs write a few thousand a day at 100,000 members, and never change one). Amounts from integer
-- micro-units as the shortest decimal (a negative one with its sign), times as toISOString, From_User
-- the sender's username or '', a Side other than '0' as '1'. Every existing row is filled here.
ALTER TABLE `volume_entries` ADD `row_json` text;--> statement-breakpoint
CREATE TRIGGER `volume_entries_row_json` AFTER INSERT ON `volume_entries`
BEGIN
  UPDATE `volume_entries` SET `row_json` = json_object('DateTime', strftime('%Y-%m-%dT%H:%M:%S', new.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', new.`created_at` % 1000),
    'TransID', new.`trans_id`,
    'From_User', coalesce((SELECT `username` FROM `members` WHERE `id` = new.`from_member_id`), ''),
    'Transaction_ID', coalesce(new.`transaction_id`, ''),
    'Side', CASE WHEN new.`side` = '0' THEN '0' ELSE '1' END,
    'Volume', json(CASE WHEN new.`volume` % 1000000 = 0 THEN new.`volume` / 1000000 ELSE (CASE WHEN new.`volume` < 0 THEN '-' ELSE '' END) || (abs(new.`volume`) / 1000000) || rtrim(printf('.%06d', abs(new.`volume`) % 1000000), '0') END),
    'Left_Volume', json(CASE WHEN new.`left_volume` % 1000000 = 0 THEN new.`left_volume` / 1000000 ELSE (CASE WHEN new.`left_volume` < 0 THEN '-' ELSE '' END) || (abs(new.`left_volume`) / 1000000) || rtrim(printf('.%06d', abs(new.`left_volume`) % 1000000), '0') END),
    'Left_Carry', json(CASE WHEN new.`left_carry` % 1000000 = 0 THEN new.`left_carry` / 1000000 ELSE (CASE WHEN new.`left_carry` < 0 THEN '-' ELSE '' END) || (abs(new.`left_carry`) / 1000000) || rtrim(printf('.%06d', abs(new.`left_carry`) % 1000000), '0') END),
    'Left_Total', json(CASE WHEN new.`left_total` % 1000000 = 0 THEN new.`left_total` / 1000000 ELSE (CASE WHEN new.`left_total` < 0 THEN '-' ELSE '' END) || (abs(new.`left_total`) / 1000000) || rtrim(printf('.%06d', abs(new.`left_total`) % 1000000), '0') END),
    'Right_Volume', json(CASE WHEN new.`right_volume` % 1000000 = 0 THEN new.`right_volume` / 1000000 ELSE (CASE WHEN new.`right_volume` < 0 THEN '-' ELSE '' END) || (abs(new.`right_volume`) / 1000000) || rtrim(printf('.%06d', abs(new.`right_volume`) % 1000000), '0') END),
    'Right_Carry', json(CASE WHEN new.`right_carry` % 1000000 = 0 THEN new.`right_carry` / 1000000 ELSE (CASE WHEN new.`right_carry` < 0 THEN '-' ELSE '' END) || (abs(new.`right_carry`) / 1000000) || rtrim(printf('.%06d', abs(new.`right_carry`) % 1000000), '0') END),
    'Right_Total', json(CASE WHEN new.`right_total` % 1000000 = 0 THEN new.`right_total` / 1000000 ELSE (CASE WHEN new.`right_total` < 0 THEN '-' ELSE '' END) || (abs(new.`right_total`) / 1000000) || rtrim(printf('.%06d', abs(new.`right_total`) % 1000000), '0') END),
    'Status', new.`status`)
  WHERE `id` = new.`id`;
END;
--> statement-breakpoint
UPDATE `volume_entries` SET `row_json` = json_object('DateTime', strftime('%Y-%m-%dT%H:%M:%S', `volume_entries`.`created_at` / 1000, 'unixepoch') || printf('.%03dZ', `volume_entries`.`created_at` % 1000),
    'TransID', `volume_entries`.`trans_id`,
    'From_User', coalesce((SELECT `username` FROM `members` WHERE `id` = `volume_entries`.`from_member_id`), ''),
    'Transaction_ID', coalesce(`volume_entries`.`transaction_id`, ''),
    'Side', CASE WHEN `volume_entries`.`side` = '0' THEN '0' ELSE '1' END,
    'Volume', json(CASE WHEN `volume_entries`.`volume` % 1000000 = 0 THEN `volume_entries`.`volume` / 1000000 ELSE (CASE WHEN `volume_entries`.`volume` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`volume`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`volume`) % 1000000), '0') END),
    'Left_Volume', json(CASE WHEN `volume_entries`.`left_volume` % 1000000 = 0 THEN `volume_entries`.`left_volume` / 1000000 ELSE (CASE WHEN `volume_entries`.`left_volume` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`left_volume`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`left_volume`) % 1000000), '0') END),
    'Left_Carry', json(CASE WHEN `volume_entries`.`left_carry` % 1000000 = 0 THEN `volume_entries`.`left_carry` / 1000000 ELSE (CASE WHEN `volume_entries`.`left_carry` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`left_carry`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`left_carry`) % 1000000), '0') END),
    'Left_Total', json(CASE WHEN `volume_entries`.`left_total` % 1000000 = 0 THEN `volume_entries`.`left_total` / 1000000 ELSE (CASE WHEN `volume_entries`.`left_total` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`left_total`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`left_total`) % 1000000), '0') END),
    'Right_Volume', json(CASE WHEN `volume_entries`.`right_volume` % 1000000 = 0 THEN `volume_entries`.`right_volume` / 1000000 ELSE (CASE WHEN `volume_entries`.`right_volume` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`right_volume`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`right_volume`) % 1000000), '0') END),
    'Right_Carry', json(CASE WHEN `volume_entries`.`right_carry` % 1000000 = 0 THEN `volume_entries`.`right_carry` / 1000000 ELSE (CASE WHEN `volume_entries`.`right_carry` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`right_carry`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`right_carry`) % 1000000), '0') END),
    'Right_Total', json(CASE WHEN `volume_entries`.`right_total` % 1000000 = 0 THEN `volume_entries`.`right_total` / 1000000 ELSE (CASE WHEN `volume_entries`.`right_total` < 0 THEN '-' ELSE '' END) || (abs(`volume_entries`.`right_total`) / 1000000) || rtrim(printf('.%06d', abs(`volume_entries`.`right_total`) % 1000000), '0') END),
    'Status', `volume_entries`.`status`);
