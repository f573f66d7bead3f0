from pipelint.cli.main import main

# Guarded: worker processes started by "spawn" import the main module again
# under another name, and must not run the CLI a second time.
if __name__ == "__main__":
    main()
