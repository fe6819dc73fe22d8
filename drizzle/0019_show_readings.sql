-- Whether the reader shows readings (furigana, pinyin) over Japanese and Chinese words; shown unless turned off.
ALTER TABLE "learner_settings" ADD COLUMN "show_readings" boolean DEFAULT true NOT NULL;
