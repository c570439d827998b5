"""``python -m mextrain``: the command line."""

from mextrain.cli import main

if __name__ == "__main__":
    main()
