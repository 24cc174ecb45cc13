from railbird.cli import main

raise SystemExit(main())
