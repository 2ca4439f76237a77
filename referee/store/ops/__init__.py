"""Operations on a whole store, whichever backend holds it: copy one into another
(copy.py), take a backup and check it (backup.py), restore one (restore.py). tables.py
says what a store holds, logs.py verifies the logs a copy holds."""
