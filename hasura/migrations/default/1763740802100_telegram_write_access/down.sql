DROP TABLE bot.write_access;
